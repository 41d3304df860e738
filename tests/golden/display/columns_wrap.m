% Rows wider than 80 characters split into Columns blocks.
a = (0:20).^3 / 1000
b = 1:20
c = (1:7) * 1000
d = (1:10) * 1000.5
e = [true(1, 21)]
format compact
f = 1:14
format loose
disp(1:14)
