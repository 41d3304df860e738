%% Compute gradient using automatic differentiation (dlgradient reference page)
% Rosenbrock's function and its gradient at the point [-1,2]. The helper
% functions rosenbrock.m and rosenbrock2.m are in this folder.

x0 = dlarray([-1,2]);
[fval,gradval] = dlfeval(@rosenbrock,x0)

% The same function of two inputs, x1 and x2.
x1 = dlarray(-1);
x2 = dlarray(2);
[fval,dydx1,dydx2] = dlfeval(@rosenbrock2,x1,x2)
