function total = bench_nested(n)
% BENCH_NESTED local functions calling each other (the nested_calls benchmark).
total = 0;
for i = 1:n
    total = total + outer_step(i);
end
end

function y = outer_step(i)
y = middle_step(i, 2) - 1;
end

function y = middle_step(i, k)
y = inner_step(i) * k;
end

function y = inner_step(i)
y = i + 1;
end
