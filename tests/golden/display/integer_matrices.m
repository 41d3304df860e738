% Integer-valued double matrices: width 6 below 1000, else 12.
a = magic(4)
b = [15 150]
c = logspace(0, 3, 4)
d = [-100 0 100]
e = [-100000000 1]
f = [NaN 1 3 NaN 2]
g = [-Inf NaN]
h = [1; 22; 333]
