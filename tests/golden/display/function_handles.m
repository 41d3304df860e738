% Function handles display func2str's text: anonymous ones without blanks.
f = @(x) x.^2
g = @sin
h = @(x) 2*x.^3 - 3
k = @(x) [x 1; -x 2]
l = @() disp('a b')
m = @(x, y) x(end) + y'
n = @(a) @(b) a + b
o = @(x) -(x + 1) * 2
p = @(s) s.field{1}(2:end)
q = @(x) x >= 0 & ~isempty(x) || x ~= 1
disp(f)
