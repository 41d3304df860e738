%% A custom training loop: a small network fitted with dlfeval, dlgradient and SGD
% A network with one hidden layer of tanh units learns y = sin(x) from noisy
% samples. modelLoss (a local function below) computes the mean squared error
% and its gradient with respect to every learnable parameter; the loop takes
% plain gradient descent steps.

rng(0)
numSamples = 64;
x = linspace(-pi,pi,numSamples);
t = sin(x) + 0.1*(rand(1,numSamples) - 0.5);
X = dlarray(x);
T = dlarray(t);

% The learnable parameters, in a structure of dlarrays.
numHidden = 12;
params.W1 = dlarray(rand(numHidden,1) - 0.5);
params.b1 = dlarray(rand(numHidden,1) - 0.5);
params.W2 = dlarray(0.5*(rand(1,numHidden) - 0.5));
params.b2 = dlarray(0);

learnRate = 0.1;
numIterations = 1000;
losses = zeros(1,numIterations);
for iteration = 1:numIterations
    [loss,gradients] = dlfeval(@modelLoss,params,X,T);
    params.W1 = params.W1 - learnRate*gradients.W1;
    params.b1 = params.b1 - learnRate*gradients.b1;
    params.W2 = params.W2 - learnRate*gradients.W2;
    params.b2 = params.b2 - learnRate*gradients.b2;
    losses(iteration) = extractdata(loss);
    if iteration == 1 || mod(iteration,100) == 0
        fprintf('iteration %4d: loss = %.6f\n', iteration, losses(iteration));
    end
end

Y = model(params,X);
fprintf('largest error after training: %.4f\n', max(abs(extractdata(Y) - sin(x))));

function Y = model(params,X)
    H = tanh(params.W1*X + params.b1);
    Y = params.W2*H + params.b2;
end

function [loss,gradients] = modelLoss(params,X,T)
    Y = model(params,X);
    loss = mean((Y - T).^2,"all");
    gradients = dlgradient(loss,params);
end
