% format long: 15 decimals for double, 7 for single; integers unchanged.
format long
a = pi
b = 12.5
c = 4/3
d = eps
e = -3e9
f = 3e8
g = [4/3 1.2345e-6]
h = [1.77635683940025e-15 2.2204460492503e-16]
k = [0 0.9133759 0.2784982] .* ones(1, 3, 'single')
l = ones(1, 1, 'single') * pi
m = 3 + 4i
n = ones(1, 1, 'int8') * 5
s.a = pi;
s
format
o = pi
