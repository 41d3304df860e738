% recursion_fib: naive recursive fib(20), 21891 calls.
cpu0 = cputime;
tic;
f = bench_fib(20);
wall = toc;
cpu = cputime - cpu0;
if f ~= 6765
    error('bench:wrong', 'recursion_fib computed %g', f);
end
fprintf('recursion_fib %.6f %.6f\n', cpu, wall);
