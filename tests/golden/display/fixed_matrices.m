% Non-integer matrices in %10.4f columns; exact zeros bare, NaN/Inf right-aligned.
a = [4/3 1.2345e-6]
b = [-0.1 2.967]
c = [0 1.0511 NaN]
d = [104.7 29.9]
e = [NaN 1 3.4 NaN 2]
f = [0.5 -0.25; Inf 1]
g = [1e-10 1]
