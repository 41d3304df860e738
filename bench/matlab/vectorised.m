% vectorised: element-wise arithmetic on 1e6-element arrays, repeated 20 times.
% bench/numpy_vectorised.py does the same in NumPy (the reference).
n = 1000000;
x = (1:n) / n;
acc = 0;
cpu0 = cputime;
tic;
for r = 1:20
    y = x.^2 + 3*x - 1;
    z = sqrt(abs(y)) .* exp(-x);
    w = (z > 0.5) .* z ./ (1 + x);
    acc = acc + sum(w);
end
wall = toc;
cpu = cputime - cpu0;
if abs(acc - 20*sum(w)) > 1e-6 * abs(acc)
    error('bench:wrong', 'vectorised computed %g', acc);
end
fprintf('vectorised %.6f %.6f\n', cpu, wall);
