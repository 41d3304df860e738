% sprintf_loop: s = [s sprintf('%d,', i)] and str = sprintf('%s-%d', name, i) in a loop.
if ~exist('n', 'var'), n = 30000; end
s = '';
name = 'item';
total = 0;
cpu0 = cputime;
tic;
for i = 1:n
    s = [s sprintf('%d,', i)];
    str = sprintf('%s-%d', name, i);
    total = total + numel(str);
end
wall = toc;
cpu = cputime - cpu0;
digits = sum(floor(log10(1:n)) + 1);
if numel(s) ~= digits + n || total ~= digits + 5*n || ~strcmp(str, sprintf('item-%d', n))
    error('bench:wrong', 'sprintf_loop built %g characters', numel(s));
end
fprintf('sprintf_loop %.6f %.6f\n', cpu, wall);
