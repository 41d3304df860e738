function r = bench_fib(n)
% BENCH_FIB naive recursive Fibonacci (the recursion benchmark).
if n < 2
    r = n;
else
    r = bench_fib(n - 1) + bench_fib(n - 2);
end
end
