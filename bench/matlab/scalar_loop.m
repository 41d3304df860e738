% scalar_loop: 1e6 iterations of scalar double arithmetic.
s = 0;
cpu0 = cputime;
tic;
for i = 1:1e6
    s = s + i*0.5;
end
wall = toc;
cpu = cputime - cpu0;
if s ~= 250000250000
    error('bench:wrong', 'scalar_loop computed %g', s);
end
fprintf('scalar_loop %.6f %.6f\n', cpu, wall);
