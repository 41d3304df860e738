% growth_patterns: from empty, n times each: x(end+1) = i, s = [s i], c{end+1} = i
% and st(end+1).f = i.
if ~exist('n', 'var'), n = 20000; end
x = [];
s = [];
c = {};
st = struct('f', {});
cpu0 = cputime;
tic;
for i = 1:n
    x(end+1) = i;
end
for i = 1:n
    s = [s i];
end
for i = 1:n
    c{end+1} = i;
end
for i = 1:n
    st(end+1).f = i;
end
wall = toc;
cpu = cputime - cpu0;
if ~isequal(x, 1:n) || ~isequal(s, 1:n) || numel(c) ~= n || c{n} ~= n || numel(st) ~= n || st(n).f ~= n
    error('bench:wrong', 'growth_patterns built a wrong result');
end
fprintf('growth_patterns %.6f %.6f\n', cpu, wall);
