function [cpu, wall, loss, state] = ad_train_tanh_fn(params, X, T, n, accelerate)
% AD_TRAIN_TANH_FN  benchmark (f), model function: training steps of a tanh MLP.
% PARAMS has fields W1, b1, ..., W4, b4 (single); X is features-by-batch, T 1-by-batch.
% Each of the N steps evaluates, inside dlfeval, the mse of the MLP (three tanh layers
% written with fullyconnect and tanh) and its gradient, then makes an adamupdate step.
% Returns the CPU and elapsed seconds of the N steps, the loss of the last step and a
% struct of plain arrays: the parameters after the last update and the gradient moving
% averages (avg_W1, ...).  With ACCELERATE true, the loss function is called through
% dlaccelerate (its trace recorded at a first call outside the timed steps).
names = fieldnames(params);
for k = 1:numel(names)
    params.(names{k}) = dlarray(params.(names{k}));
end
X = dlarray(X, 'CB');
fun = @model_loss;
if nargin > 4 && accelerate
    fun = dlaccelerate(fun);
    [~, ~] = dlfeval(fun, params, X, T);
end
avgGrad = [];
avgSqGrad = [];
cpu0 = cputime;
tic;
for k = 1:n
    [loss, grads] = dlfeval(fun, params, X, T);
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

function [loss, grads] = model_loss(params, X, T)
h = tanh(fullyconnect(X, params.W1, params.b1));
h = tanh(fullyconnect(h, params.W2, params.b2));
h = tanh(fullyconnect(h, params.W3, params.b3));
Y = fullyconnect(h, params.W4, params.b4);
loss = mse(Y, T);
grads = dlgradient(loss, params);
end
