function y = bench_step(x, k)
% BENCH_STEP one small step (the callee of the function-call benchmark).
y = x + k;
end
