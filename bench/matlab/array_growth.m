% array_growth: a row vector grown one element at a time with x(end+1) = i.
x = [];
cpu0 = cputime;
tic;
for i = 1:20000
    x(end+1) = i;
end
wall = toc;
cpu = cputime - cpu0;
if numel(x) ~= 20000 || x(end) ~= 20000
    error('bench:wrong', 'array_growth built %g elements', numel(x));
end
fprintf('array_growth %.6f %.6f\n', cpu, wall);
