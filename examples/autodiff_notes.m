%% Use automatic differentiation in Deep Learning Toolbox: the notes' examples
% The value and gradient of Rosenbrock's function (rosenbrock.m, in this
% folder), then the page's remarks on the derivative trace and on points
% where a function is not differentiable.

%% dlgradient and dlfeval together
x0 = dlarray([-1,2]);
[fval,gval] = dlfeval(@rosenbrock,x0)

%% A dlarray made inside the function is not traced
% fun (a local function below) differentiates with respect to such a value,
% which is an error.
try
    [dy,dy1] = dlfeval(@fun,dlarray(1))
catch err
    disp(err.message)
end

%% extractdata breaks the trace
fun = @(x)dlgradient(x + atan(extractdata(x)),x);
% Gradient for any point is 1 due to the leading 'x' term in fun.
dlfeval(fun,dlarray(2.5))

%% A value for the derivative where there is no theoretical one
% relu(x) = max(x,0) is not differentiable at 0; dlgradient returns 0 there.
x = dlarray(0);
y = dlfeval(@(t)dlgradient(relu(t),t),x)

% The value at the nearby point eps is different.
x = dlarray(eps);
y = dlfeval(@(t)dlgradient(relu(t),t),x)

function [dy,dy1] = fun(x1)
x2 = dlarray(0);
y = x1 + x2;
dy = dlgradient(y,x2); % Error: x2 is untraced
dy1 = dlgradient(y,x1); % No error even though y has an untraced portion
end
