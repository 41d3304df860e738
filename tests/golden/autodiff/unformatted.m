% Unformatted dlarrays: the header names the size and the class, the body is
% the numeric display of the data.
a = dlarray(5)
x = dlarray([-1,2])
X = dlarray(reshape(1:6,2,3))
p = dlarray([pi; exp(1); -0.5])
% Large values share a scale factor; exact zeros print as 0.
y = dlarray([-12000; -12000; 40973; 0; 0; 0; 0; 0; 2199.1; -4084.1])
x = dlarray([10; 10; 1100; 0; 0; 0; 563; 0; 10; 10])
s = dlarray([NaN -Inf 1])
% A dlarray of a dlarray is a copy.
b = dlarray(a)
