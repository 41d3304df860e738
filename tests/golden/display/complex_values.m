% Complex: fixed decimals below 100 (exponents or a scale factor above).
a = 3 + 4i
b = 8i
c = (2 - 3i) * (-3 + 2i)
d = [-0.5724 + 0.9914i; -0.5724 - 0.9914i; 1.1447]
e = [0.5537 + 0.4644i, 0.8070 - 0.2124i]
f = complex(100, pi)
g = [1 + 2i, 10 + 20i]
h = [-102.04 + 1i, 3]
k = 2 - 1i
