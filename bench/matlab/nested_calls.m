% nested_calls: local functions of a function file calling each other three deep.
if ~exist('n', 'var'), n = 50000; end
cpu0 = cputime;
tic;
total = bench_nested(n);
wall = toc;
cpu = cputime - cpu0;
% sum over i of 2*(i+1) - 1
if total ~= n*(n+1) + n
    error('bench:wrong', 'nested_calls computed %g', total);
end
fprintf('nested_calls %.6f %.6f\n', cpu, wall);
