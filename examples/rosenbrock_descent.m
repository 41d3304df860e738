%% Gradient descent on Rosenbrock's function
% Minimises f(x) = 100*(x2 - x1^2)^2 + (1 - x1)^2 from the point [-1, 2]
% with a hand-written gradient and a backtracking line search.

x = [-1; 2];
f = @(x) 100*(x(2) - x(1)^2)^2 + (1 - x(1))^2;
grad = @(x) [-400*x(1)*(x(2) - x(1)^2) - 2*(1 - x(1)); 200*(x(2) - x(1)^2)];

for k = 1:5000
    g = grad(x);
    if norm(g) < 1e-6
        break
    end
    step = 1;
    while f(x - step*g) > f(x) - 0.5*step*(g'*g)   % Armijo condition
        step = step / 2;
    end
    x = x - step*g;
    if mod(k, 1000) == 0
        fprintf('iteration %4d: f = %.3e\n', k, f(x));
    end
end

fprintf('minimum near [%.4f, %.4f] after %d iterations\n', x(1), x(2), k);
