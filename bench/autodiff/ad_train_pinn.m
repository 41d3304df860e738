function [cpu, wall, loss, state] = ad_train_pinn(params, X, f, g, n)
% AD_TRAIN_PINN  benchmark (e): training steps of a PINN.
% u(x,t) is a tanh MLP written with fullyconnect and tanh (parameters W1, b1, ...,
% W3, b3 as plain arrays) on the points X (2xN, rows x and t, formatted 'CB');
% f and g are 1xN targets.  Each of the N steps evaluates, inside dlfeval,
%   loss = mean((d2u/dx2 - f).^2) + mean((u - g).^2)
% with d2u/dx2 from two dlgradient calls with 'EnableHigherDerivatives', its
% gradient with respect to the parameters, and an adamupdate step.  Returns the
% CPU and elapsed seconds of the N steps, the loss of the last step and a struct
% of plain arrays: the parameters after the last update (W1, b1, ...) and the
% gradient moving averages (avg_W1, ...).
names = fieldnames(params);
for k = 1:numel(names)
    params.(names{k}) = dlarray(params.(names{k}));
end
X = dlarray(X, 'CB');
avgGrad = [];
avgSqGrad = [];
cpu0 = cputime;
tic;
for k = 1:n
    [loss, grads] = dlfeval(@model_loss, params, X, f, g);
    [params, avgGrad, avgSqGrad] = adamupdate(params, grads, avgGrad, avgSqGrad, k);
end
wall = toc;
cpu = cputime - cpu0;
loss = extractdata(loss);
state = struct();
for k = 1:numel(names)
    state.(names{k}) = extractdata(params.(names{k}));
    state.(['avg_' names{k}]) = extractdata(avgGrad.(names{k}));
end
end

function [loss, grads] = model_loss(params, X, f, g)
u = model(params, X);
du = dlgradient(sum(u, 'all'), X, 'EnableHigherDerivatives', true);
ux = du(1, :);
d2u = dlgradient(sum(ux, 'all'), X, 'EnableHigherDerivatives', true);
uxx = d2u(1, :);
loss = mean((uxx - f).^2, 'all') + mean((u - g).^2, 'all');
grads = dlgradient(loss, params);
end

function u = model(params, X)
h = tanh(fullyconnect(X, params.W1, params.b1));
h = tanh(fullyconnect(h, params.W2, params.b2));
u = fullyconnect(h, params.W3, params.b3);
end
