function [cpu, wall, loss, state] = ad_train_tanh_net(params, X, T, n, accelerate)
% AD_TRAIN_TANH_NET  benchmark (f), dlnetwork: training steps of a tanh MLP.
% The MLP of AD_TRAIN_TANH_FN built from layers (featureInputLayer, fullyConnectedLayer
% with the given weights, tanhLayer) as a dlnetwork; each of the N steps evaluates, inside
% dlfeval, forward and mse and the gradient with respect to net.Learnables, then makes an
% adamupdate step on the network.  Returns what AD_TRAIN_TANH_FN returns.  With
% ACCELERATE true, the loss function is called through dlaccelerate (its trace recorded
% at a first call outside the timed steps).
numLayers = numel(fieldnames(params)) / 2;
layers = featureInputLayer(size(X, 1));
for k = 1:numLayers
    W = params.(sprintf('W%d', k));
    b = params.(sprintf('b%d', k));
    layers = [layers; fullyConnectedLayer(size(W, 1), Weights=W, Bias=b)]; %#ok<AGROW>
    if k < numLayers
        layers = [layers; tanhLayer]; %#ok<AGROW>
    end
end
net = dlnetwork(layers);
X = dlarray(X, 'CB');
fun = @model_loss;
if nargin > 4 && accelerate
    fun = dlaccelerate(fun);
    [~, ~] = dlfeval(fun, net, X, T);
end
avgGrad = [];
avgSqGrad = [];
cpu0 = cputime;
tic;
for k = 1:n
    [loss, grads] = dlfeval(fun, net, X, T);
    [net, avgGrad, avgSqGrad] = adamupdate(net, grads, avgGrad, avgSqGrad, k);
end
wall = toc;
cpu = cputime - cpu0;
loss = extractdata(loss);
state = struct();
values = net.Learnables.Value;
averages = avgGrad.Value;
for k = 1:numLayers
    state.(sprintf('W%d', k)) = extractdata(values{2*k - 1});
    state.(sprintf('b%d', k)) = extractdata(values{2*k});
    state.(sprintf('avg_W%d', k)) = extractdata(averages{2*k - 1});
    state.(sprintf('avg_b%d', k)) = extractdata(averages{2*k});
end
end

function [loss, grads] = model_loss(net, X, T)
Y = forward(net, X);
loss = mse(Y, T);
grads = dlgradient(loss, net.Learnables);
end
