% prealloc_recurrence: x(i) = x(i-1)*0.5 + i into a preallocated row.
if ~exist('n', 'var'), n = 300000; end
x = zeros(1, n);
x(1) = 1;
cpu0 = cputime;
tic;
for i = 2:n
    x(i) = x(i-1)*0.5 + i;
end
wall = toc;
cpu = cputime - cpu0;
% The recurrence's closed form: x(i) = 2*i - 2 + 2^(1-i).
if abs(x(n) - (2*n - 2 + 2^(1-n))) > 1e-9*n || x(2) ~= 2.5
    error('bench:wrong', 'prealloc_recurrence computed %g', x(n));
end
fprintf('prealloc_recurrence %.6f %.6f\n', cpu, wall);
