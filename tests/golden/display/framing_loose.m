% Statement framing in format loose: a blank line before the name, after it,
% and after the value; a bare variable keeps its name, an expression sets ans.
x = 5
5 + 6
x
y = [];
y
fprintf('a=%d\n', 1); b = 2
fprintf('abc'); z = 1
disp(1)
