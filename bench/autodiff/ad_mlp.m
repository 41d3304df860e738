function [cpu, wall, loss, grads] = ad_mlp(params, X, T, n, mode)
% AD_MLP  benchmark (b): a relu MLP with a softmax cross-entropy loss.
% PARAMS has fields W1 (HxD), b1 (Hx1), W2 (KxH), b2 (Kx1); X is DxB, T is KxB
% one-hot; all plain arrays of one class (double or single).  N calls of
%   'gradient'  [loss, grads] = dlfeval(@mlp_gradient, ...)  (loss and dloss/dparams)
%   'forward'   loss = mlp_loss(...) on untraced dlarrays, outside dlfeval
%   'traced'    loss = dlfeval(@mlp_loss, ...): the traced forward, no dlgradient
% Returns the CPU and elapsed seconds of the N calls, the last loss and the
% last gradients (a struct of plain arrays; [] unless 'gradient').
names = fieldnames(params);
for k = 1:numel(names)
    params.(names{k}) = dlarray(params.(names{k}));
end
X = dlarray(X);
grads = [];
cpu0 = cputime;
tic;
switch mode
    case 'gradient'
        for k = 1:n
            [loss, grads] = dlfeval(@mlp_gradient, params, X, T);
        end
    case 'forward'
        for k = 1:n
            loss = mlp_loss(params, X, T);
        end
    case 'traced'
        for k = 1:n
            loss = dlfeval(@mlp_loss, params, X, T);
        end
    otherwise
        error('ad_mlp:mode', 'unknown mode ''%s''', mode);
end
wall = toc;
cpu = cputime - cpu0;
loss = extractdata(loss);
if isstruct(grads)
    for k = 1:numel(names)
        grads.(names{k}) = extractdata(grads.(names{k}));
    end
end
end

function [loss, grads] = mlp_gradient(params, X, T)
loss = mlp_loss(params, X, T);
grads = dlgradient(loss, params);
end

function loss = mlp_loss(params, X, T)
H = relu(params.W1*X + params.b1);
Z = params.W2*H + params.b2;
E = exp(Z);
P = E ./ sum(E, 1);
loss = -sum(T.*log(P), 'all') / size(X, 2);
end
