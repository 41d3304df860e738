% Formatted dlarrays: each size is followed by its label, dimensions are
% separated by ' × ', and the data is permuted to S, C, B, T, U order.
rng default % For reproducibility
dlX = dlarray(rand(4,3) > 0.5,'SS')
y = extractdata(dlX)
C = dlarray([1 2 3; 4 5 6],'CB')
% 'TS' is stored as 'ST': the data is transposed.
Z = dlarray([1 2 3; 4 5 6],'TS')
d = dims(Z)
% A vector with one label: a column vector whose second dimension is 'U'.
v = dlarray([1 2 3],'C')
% Labels beyond the data's dimensions are singletons.
w = dlarray([1 2; 3 4],'SSCB')
c = dlarray(7,'CB')
% An N-D formatted array shows its pages.
X = reshape([0.5377 1.8339 -2.2588 0.8622 0.3188 -1.3077 ...
    -0.4336 0.3426 3.5784 2.7694 -1.3499 3.0349],3,2,1,2);
dlX = dlarray(X,'SSTU')
y = stripdims(dlX)
