%% The gradient of Rosenbrock's function over the unit square (dlgradient reference page)
% Evaluates rosenbrock2.m (in this folder) at a 10-by-10 grid of points and
% plots the gradient with quiver.

[X1 X2] = meshgrid(linspace(0,1,10));
X1 = dlarray(X1(:));
X2 = dlarray(X2(:));
Y = dlarray(zeros(size(X1)));
DYDX1 = Y;
DYDX2 = Y;

for i = 1:length(X1)
    [Y(i),DYDX1(i),DYDX2(i)] = dlfeval(@rosenbrock2,X1(i),X2(i));
end
quiver(extractdata(X1),extractdata(X2),extractdata(DYDX1),extractdata(DYDX2))
xlabel('x1')
ylabel('x2')

%% Check the result against the gradient worked out by hand
x1 = extractdata(X1);
x2 = extractdata(X2);
g1 = -400*x1.*(x2 - x1.^2) - 2*(1 - x1);
g2 = 200*(x2 - x1.^2);
fprintf('%s holding %d gradients\n', class(DYDX1), numel(DYDX1));
fprintf('at (%g, %g): f = %g, gradient = [%g, %g]\n', x1(1), x2(1), ...
    extractdata(Y(1)), extractdata(DYDX1(1)), extractdata(DYDX2(1)));
fprintf('at (%g, %g), the minimum: f = %g, gradient norm = %g\n', x1(end), x2(end), ...
    extractdata(Y(end)), norm([extractdata(DYDX1(end)), extractdata(DYDX2(end))]));
err = max(abs([extractdata(DYDX1) - g1; extractdata(DYDX2) - g2]));
fprintf('matches the analytic gradient: %d\n', err < 1e-9);
