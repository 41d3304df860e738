% function_calls: 2e5 calls of a user function from a file in this folder.
s = 0;
cpu0 = cputime;
tic;
for i = 1:200000
    s = bench_step(s, 1);
end
wall = toc;
cpu = cputime - cpu0;
if s ~= 200000
    error('bench:wrong', 'function_calls computed %g', s);
end
fprintf('function_calls %.6f %.6f\n', cpu, wall);
