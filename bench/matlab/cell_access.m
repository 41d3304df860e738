% cell_access: writes and reads of cell elements in a loop.
n = 1000;
c = cell(1, n);
j = 0;
total = 0;
cpu0 = cputime;
tic;
for i = 1:100000
    j = j + 1;
    if j > n
        j = 1;
    end
    c{j} = i;
    total = total + c{j};
end
wall = toc;
cpu = cputime - cpu0;
if total ~= 5000050000 || c{n} ~= 100000
    error('bench:wrong', 'cell_access computed %g', total);
end
fprintf('cell_access %.6f %.6f\n', cpu, wall);
