% while_compound: a while loop whose condition and ifs are && / || compounds of comparisons.
if ~exist('n', 'var'), n = 300000; end
i = 0;
k = 0;
j = 0;
cpu0 = cputime;
tic;
while i < n && (k >= 0 || i == -1)
    i = i + 1;
    if i > 10 && i <= n - 10 || i == 5
        k = k + 1;
    end
    if ~(i <= 3) && k ~= 7 || j < 0
        j = j + 1;
    end
end
wall = toc;
cpu = cputime - cpu0;
if i ~= n || k ~= n - 20 + 1 || j ~= n - 3 - 1
    error('bench:wrong', 'while_compound counted %g %g %g', i, k, j);
end
fprintf('while_compound %.6f %.6f\n', cpu, wall);
