function [cpu, wall, y, g] = ad_rosenbrock(x0, n)
% AD_ROSENBROCK  benchmark (a): value and gradient of the Rosenbrock function
% through dlfeval/dlgradient, N calls at the point X0 (a 1x2 row).
% Returns the CPU and elapsed seconds of the N calls, and the last value and
% gradient as plain arrays.
x = dlarray(x0);
cpu0 = cputime;
tic;
for k = 1:n
    [y, g] = dlfeval(@rosenbrock, x);
end
wall = toc;
cpu = cputime - cpu0;
y = extractdata(y);
g = extractdata(g);
end

function [y, dydx] = rosenbrock(x)
y = 100*(x(2) - x(1).^2).^2 + (1 - x(1)).^2;
dydx = dlgradient(y, x);
end
