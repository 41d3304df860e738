% struct_array_loop: s(i).a = i; s(i).b = s(i).a*2 over a struct array, then reads.
if ~exist('n', 'var'), n = 50000; end
s = struct('a', cell(1, n), 'b', cell(1, n));
cpu0 = cputime;
tic;
for i = 1:n
    s(i).a = i;
    s(i).b = s(i).a*2;
end
total = 0;
for i = 1:n
    total = total + s(i).b - s(i).a;
end
wall = toc;
cpu = cputime - cpu0;
if total ~= n*(n+1)/2 || s(n).b ~= 2*n || numel(s) ~= n
    error('bench:wrong', 'struct_array_loop computed %g', total);
end
fprintf('struct_array_loop %.6f %.6f\n', cpu, wall);
