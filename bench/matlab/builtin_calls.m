% builtin_calls: common builtins on scalars and short vectors, as loops call them
% (reductions, sorting, searching, construction, concatenation, structs, number theory).
if ~exist('n', 'var'), n = 20000; end
total = 0;
cpu0 = cputime;
tic;
for k = 1:n
    v = [k, k + 1, k - 2];
    s = sort(v, 'descend');
    c = cumsum(v);
    l = linspace(0, k, 3);
    w = reshape([v, k], 2, 2);
    u = vertcat(v, v);
    st = struct('a', k);
    p = prod(v(1:2));
    total = total + any(v > k) + all(v) + s(1) + c(end) + max(v) + min(v) + find(v > k, 1) ...
        + l(2) + norm(v(1:2)) + dot(v, v) + mean(v) + numel(u) + w(4) + st.a + isfield(st, 'a') ...
        + gcd(k, 12) + mod(k, 7) + round(k / 3) + abs(-k) + isempty(v) + p + sum(zeros(1, 2)) ...
        + atan2(k, k) + hypot(3, 4) + nnz(v) + numel(cell(1, 2)) + size(eye(2), 1);
end
wall = toc;
cpu = cputime - cpu0;
expect = 0;
for k = 1:n  % the same sum written with operators alone
    expect = expect + 1 + 1 + (k + 1) + (3*k - 1) + (k + 1) + (k - 2) + 2 + k/2 ...
        + sqrt(k^2 + (k + 1)^2) + (k^2 + (k + 1)^2 + (k - 2)^2) + (k - 1/3) + 6 + k + k + 1 ...
        + gcd(k, 12) + mod(k, 7) + round(k / 3) + k + 0 + k*(k + 1) + 0 + pi/4 + 5 + 3 - (k == 2) + 2 + 2;
end
if abs(total - expect) > 1e-6 * abs(expect)
    error('bench:wrong', 'builtin_calls computed %g, expected %g', total, expect);
end
fprintf('builtin_calls %.6f %.6f\n', cpu, wall);
