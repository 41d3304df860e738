function [cpu, wall, loss, state] = ad_train_mlp(params, X, T, n, accelerate)
% AD_TRAIN_MLP  benchmark (d): training steps of a relu MLP classifier.
% PARAMS has fields W1 (HxD), b1 (Hx1), W2 (KxH), b2 (Kx1); X is DxB, T is KxB
% one-hot; all plain arrays of one class (double or single).  Each of the N steps
%   [loss, grads] = dlfeval(@model_loss, params, X, T)
%   [params, avgGrad, avgSqGrad] = adamupdate(params, grads, avgGrad, avgSqGrad, k)
% where model_loss is fullyconnect, relu, fullyconnect, softmax and crossentropy
% on X formatted 'CB'.  Returns the CPU and elapsed seconds of the N steps, the
% loss of the last step and a struct of plain arrays: the parameters after the
% last update (fields W1, b1, ...) and the gradient moving averages (avg_W1, ...).
% With ACCELERATE true, the loss function is called through dlaccelerate (its trace
% recorded at a first call outside the timed steps).
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
H = relu(fullyconnect(X, params.W1, params.b1));
Y = softmax(fullyconnect(H, params.W2, params.b2));
loss = crossentropy(Y, T);
grads = dlgradient(loss, params);
end
