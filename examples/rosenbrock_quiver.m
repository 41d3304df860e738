%% The gradient field of Rosenbrock's function, drawn with quiver
% Evaluates rosenbrock2.m (in this folder) with dlfeval at a 10-by-10 grid of
% points of the unit square and draws the gradients as arrows. Run it with
%   mlang --figures DIR examples/rosenbrock_quiver.m
% to get DIR/figure1.png (without a display, ./figures/figure1.png).

[X1, X2] = meshgrid(linspace(0,1,10));
X1 = dlarray(X1(:));
X2 = dlarray(X2(:));
Y = dlarray(zeros(size(X1)));
DYDX1 = Y;
DYDX2 = Y;

for i = 1:length(X1)
    [Y(i),DYDX1(i),DYDX2(i)] = dlfeval(@rosenbrock2,X1(i),X2(i));
end

quiver(extractdata(X1),extractdata(X2),extractdata(DYDX1),extractdata(DYDX2))
xlabel('x_1')
ylabel('x_2')
title('Gradient of Rosenbrock''s function')

fprintf('largest gradient norm: %.4g\n', ...
    max(sqrt(extractdata(DYDX1).^2 + extractdata(DYDX2).^2)));
