% small_arrays: operators, indexing and concatenation on short rows inside a loop, as
% scalar-heavy code writes them (the per-operation cost, not the arithmetic, is measured).
if ~exist('n', 'var'), n = 20000; end
total = 0;
count = 0;
cpu0 = cputime;
tic;
for k = 1:n
    v = [k, k + 1, k - 2];
    a = v(1:2);
    b = v(2:end);
    c = v([1 3]);
    d = v(:);
    e = v / 2;
    f = v .^ 2;
    g = 2 * v + 1;
    h = v > k;
    m = max(v, k);
    r = mod(v, 3);
    w = [v; v];
    x = [a, b, c];
    v(2) = k;
    count = count + (k > n/2) + h(2);
    total = total + a(1) + b(end) + c(2) + d(3) + e(1) + f(3) + g(2) + m(3) + r(1) ...
        + w(2, 3) + x(6) + v(2) + sum(h);
end
wall = toc;
cpu = cputime - cpu0;
ks = 1:n;  % the same sums, vectorised
expect = sum(ks + 3*(ks - 2) + ks/2 + (ks - 2).^2 + (2*(ks + 1) + 1) + ks + mod(ks, 3) ...
    + 2*(ks - 2) + ks + 1);
if total ~= expect || count ~= n + n - ceil(n/2)
    error('bench:wrong', 'small_arrays computed %g (count %g), expected %g', total, count, expect);
end
fprintf('small_arrays %.6f %.6f\n', cpu, wall);
