% Underlying classes other than double are named in the header.
s = dlarray(single(pi))
S = dlarray(single([1 2.5; -3 4]))
class(S)
underlyingType(S)
% Comparisons of dlarrays give logical dlarrays.
x = dlarray([1 2 3; 4 5 6]);
tf = x > 2
eq = x == 5
t = dlarray(true)
n = ~tf
F = dlarray(single([1 2; 3 4]),'SS') >= 2
