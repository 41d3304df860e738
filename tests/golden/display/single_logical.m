% single and logical carry a class header; logical elements take width 4.
a = ones(1, 1, 'single') * pi
b = ones(1, 3, 'single') .* [1 2.5 3]
c = ones(2, 2, 'single') * 5
d = ones(2, 1, 'single') .* [1000.5; 1]
f2 = 4 > 5
tf = [true false]
m = [true false; false true]
t = true;
disp(t)
disp(m)
