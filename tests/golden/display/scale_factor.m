% A common scale factor when the largest magnitude is >= 1000 or <= 0.001.
a = [1.5 1000.5]
b = [2.0408e-4 1.589e-4; 1.589e-4 2.025e-4]
c = eye(3) * eps
d = [225323.23 523.23]
e = [1 1e9]
f = [1e9 1e99]
g = [-1e-17 1]
h = [0.001 0.0005]
format compact
a
format loose
