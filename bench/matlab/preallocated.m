% preallocated: 1e6 indexed writes x(i) = i into a preallocated vector.
n = 1000000;
x = zeros(1, n);
cpu0 = cputime;
tic;
for i = 1:n
    x(i) = i;
end
wall = toc;
cpu = cputime - cpu0;
if x(n) ~= n || x(1) ~= 1
    error('bench:wrong', 'preallocated wrote x(end)=%g', x(n));
end
fprintf('preallocated %.6f %.6f\n', cpu, wall);
