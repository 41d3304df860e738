% cellfun_handles: cellfun over cells with a builtin handle (@numel) and an
% anonymous function (@(x) x*2), uniform output.
if ~exist('n', 'var'), n = 50000; end
c = cell(1, n);
for i = 1:n
    c{i} = 1:mod(i, 5);
end
d = num2cell(1:n);
cpu0 = cputime;
tic;
for r = 1:4
    lengths = cellfun(@numel, c);
end
doubled = cellfun(@(x) x*2, d);
wall = toc;
cpu = cputime - cpu0;
if sum(lengths) ~= sum(mod(1:n, 5)) || ~isequal(doubled, 2*(1:n))
    error('bench:wrong', 'cellfun_handles computed a wrong result');
end
fprintf('cellfun_handles %.6f %.6f\n', cpu, wall);
