%% Fit a curve with the L-BFGS solver
% A network with one input, a hidden layer of 16 tanh neurons and one
% output learns y = sin(x) on [-pi, pi]. The learnable parameters are a
% structure of dlarrays; lbfgsupdate takes one iteration of the limited-memory
% BFGS algorithm per call, evaluating the loss and the gradients through a
% function handle, and an lbfgsState object carries the solver history from
% one iteration to the next. L-BFGS uses the whole data set in every step,
% which suits small regression problems like this one.

rng(0)

%% Generate Data
numObservations = 50;
x = linspace(-pi,pi,numObservations);
t = sin(x);

X = dlarray(x,"CB");
T = dlarray(t,"CB");

%% Define Model Parameters
numHidden = 16;

parameters = struct;
parameters.fc1.Weights = initializeGlorot([numHidden 1],numHidden,1);
parameters.fc1.Bias = initializeZeros([numHidden 1]);
parameters.fc2.Weights = initializeGlorot([1 numHidden],1,numHidden);
parameters.fc2.Bias = initializeZeros([1 1]);

%% Specify Training Options
numIterations = 25;
gradientTolerance = 1e-6;
stepTolerance = 1e-6;

%% Train Model
% The loss function that lbfgsupdate calls takes the parameters and returns
% the loss and the gradients: here, dlfeval applied to the modelLoss local
% function with the data fixed.
lossFcn = @(parameters) dlfeval(@modelLoss,parameters,X,T);

% Initialize the solver state.
solverState = lbfgsState;

for iteration = 1:numIterations
    [parameters,solverState] = lbfgsupdate(parameters,lossFcn,solverState);

    fprintf("Iteration %2d: loss = %.4e, line search %s\n", ...
        iteration,extractdata(solverState.Loss),solverState.LineSearchStatus);

    % Stop early when the solver has converged or the line search fails.
    if solverState.GradientsNorm < gradientTolerance || ...
            solverState.StepNorm < stepTolerance || ...
            solverState.LineSearchStatus == "failed"
        break
    end
end

%% Test Model
% Evaluate the fitted network between the training points.
xTest = linspace(-pi,pi,7) + pi/12;
xTest = xTest(xTest <= pi);
YTest = model(parameters,dlarray(xTest,"CB"));
fprintf("largest error at test points: %.4f\n",max(abs(extractdata(YTest) - sin(xTest))));

%% Model Loss Function
% Returns the mean squared error between the predictions and the targets
% and its gradients with respect to the learnable parameters.
function [loss,gradients] = modelLoss(parameters,X,T)

Y = model(parameters,X);
loss = mse(Y,T);
gradients = dlgradient(loss,parameters);

end

%% Model Function
function Y = model(parameters,X)

Y = fullyconnect(X,parameters.fc1.Weights,parameters.fc1.Bias);
Y = tanh(Y);
Y = fullyconnect(Y,parameters.fc2.Weights,parameters.fc2.Bias);

end

%% Glorot Weights Initialization Function
% Samples the weights from a uniform distribution with bounds
% +/- sqrt(6/(numIn + numOut)). The parameters are double precision here
% (single is the usual choice on a GPU) so that the printed results do not
% depend on rounding differences between machines.
function weights = initializeGlorot(sz,numOut,numIn,className)

arguments
    sz
    numOut
    numIn
    className = 'double'
end

Z = 2*rand(sz,className) - 1;
bound = sqrt(6 / (numIn + numOut));

weights = bound * Z;
weights = dlarray(weights);

end

%% Zeros Initialization Function
function parameters = initializeZeros(sz,className)

arguments
    sz
    className = 'double'
end

parameters = zeros(sz,className);
parameters = dlarray(parameters);

end
