% Which name a display uses: ans for expressions, each output of [a, b] = f().
3 * 4
ans
[a, b] = deal(1, 'x')
v = 7;
v
(v)
disp(v)
