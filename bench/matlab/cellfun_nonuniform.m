% cellfun_nonuniform: cellfun and arrayfun with 'UniformOutput', false, and
% arrayfun with an anonymous function.
if ~exist('n', 'var'), n = 40000; end
d = num2cell(1:n);
cpu0 = cputime;
tic;
pairs = cellfun(@(x) [x x], d, 'UniformOutput', false);
rows = arrayfun(@(k) k*ones(1, 2), 1:n, 'UniformOutput', false);
squares = arrayfun(@(k) k^2, 1:n);
wall = toc;
cpu = cputime - cpu0;
if numel(pairs) ~= n || ~isequal(pairs{end}, [n n]) || ~isequal(rows{3}, [3 3]) ...
        || ~isequal(squares, (1:n).^2)
    error('bench:wrong', 'cellfun_nonuniform computed a wrong result');
end
fprintf('cellfun_nonuniform %.6f %.6f\n', cpu, wall);
