% Scalar structs: field names right-aligned so the colons line up.
ans = struct('RiseTime', 0.4399, 'SettlingTime', 3.5359, 'Overshoot', 11.6240, ...
    'Undershoot', 0, 'Peak', 7.9731)
t.a = [1 2 3];
t.b = [1/3 1/3 0];
t.c = [1; 2; 3];
t.d = [];
t.e = 'abc';
t.f = "abc";
t.g = {'K', 'cmd'};
t.h = {};
t.i = struct('x', 1);
t.j = true;
t.k = @(x) x.^2;
t.l = [true; false];
t.m = 1e-5;
t.n = -22.7119;
t.o = zeros(1, 0);
t.p = {1; 2};
t.q = 3 + 4i;
t.r = ones(2, 2, 'int8');
t.s = ones(1, 1, 'uint8') * 200;
t
disp(t)
u = t.i
