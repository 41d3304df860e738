%% Solve Burgers' equation with a physics-informed neural network
% A physics-informed neural network (PINN) is trained so that its output
% u(x,t) satisfies Burgers' equation
%
%     du/dt + u*du/dx - (0.01/pi)*d2u/dx2 = 0,   x in [-1,1], t in [0,1],
%
% with the initial condition u(x,0) = -sin(pi*x) and the boundary conditions
% u(-1,t) = u(1,t) = 0. The network is a model function over a structure of
% learnable parameters; the loss penalizes the residual of the equation at
% collocation points (which needs second derivatives of the network, taken
% with dlgradient and EnableHigherDerivatives) and the mismatch with the
% initial and boundary conditions. The sizes are kept small so that the
% example runs in a few seconds.

rng(0)

%% Generate Training Data
% Points on the two boundaries, where u = 0.
numBoundaryConditionPoints = [10 10];

x0BC1 = -1*ones(1,numBoundaryConditionPoints(1));
x0BC2 = ones(1,numBoundaryConditionPoints(2));

t0BC1 = linspace(0,1,numBoundaryConditionPoints(1));
t0BC2 = linspace(0,1,numBoundaryConditionPoints(2));

u0BC1 = zeros(1,numBoundaryConditionPoints(1));
u0BC2 = zeros(1,numBoundaryConditionPoints(2));

% Points at t = 0, where u = -sin(pi*x).
numInitialConditionPoints = 25;

x0IC = linspace(-1,1,numInitialConditionPoints);
t0IC = zeros(1,numInitialConditionPoints);
u0IC = -sin(pi*x0IC);

% Group the initial and boundary conditions together.
X0 = [x0IC x0BC1 x0BC2];
T0 = [t0IC t0BC1 t0BC2];
U0 = [u0IC u0BC1 u0BC2];

% Collocation points in the interior of the domain, where the network must
% satisfy the equation.
numInternalCollocationPoints = 200;
points = rand(numInternalCollocationPoints,2);

dataX = 2*points(:,1) - 1;
dataT = points(:,2);

%% Define Neural Network Learnable Parameters
% A multilayer perceptron with tanh activations: two inputs (x and t), three
% hidden layers of 16 neurons and one output u. The weights are initialized
% with the Glorot initializer and the biases with zeros (local functions
% at the end of the script).
numLayers = 4;
numNeurons = 16;

parameters = struct;

sz = [numNeurons 2];
parameters.fc1.Weights = initializeGlorot(sz,numNeurons,2);
parameters.fc1.Bias = initializeZeros([numNeurons 1]);

for layerNumber = 2:numLayers-1
    name = "fc" + layerNumber;

    sz = [numNeurons numNeurons];
    numIn = numNeurons;
    parameters.(name).Weights = initializeGlorot(sz,numNeurons,numIn);
    parameters.(name).Bias = initializeZeros([numNeurons 1]);
end

sz = [1 numNeurons];
numIn = numNeurons;
parameters.("fc" + numLayers).Weights = initializeGlorot(sz,1,numIn);
parameters.("fc" + numLayers).Bias = initializeZeros([1 1]);

disp(parameters.fc1)

%% Specify Training Options
numIterations = 500;
learningRate = 0.01;
decayRate = 0.005;

%% Train Neural Network
% Convert the training data to dlarray objects with format "CB"
% (channel, batch).
X = dlarray(dataX,"BC");
T = dlarray(dataT,"BC");
X0 = dlarray(X0,"CB");
T0 = dlarray(T0,"CB");
U0 = dlarray(U0);

% Accelerate the loss function: later calls with inputs of the same sizes
% and types reuse the recorded trace.
accfun = dlaccelerate(@modelLoss);

% Clear any previously cached traces of the accelerated function.
clearCache(accfun)

% Initialize the moving averages of the Adam solver.
averageGrad = [];
averageSqGrad = [];

for iteration = 1:numIterations
    % Evaluate the loss and the gradients using dlfeval and the
    % accelerated modelLoss function.
    [loss,gradients] = dlfeval(accfun,parameters,X,T,X0,T0,U0);

    % Update the learning rate with a time-based decay schedule.
    learnRate = learningRate / (1 + decayRate*iteration);

    % Update the learnable parameters using the adamupdate function.
    [parameters,averageGrad,averageSqGrad] = adamupdate(parameters,gradients,averageGrad, ...
        averageSqGrad,iteration,learnRate);

    if iteration == 1 || mod(iteration,50) == 0
        fprintf("Iteration %3d, loss = %.5f\n",iteration,extractdata(loss));
    end
end

%% Test Model
% Compare the predicted solution at t = 0 with the initial condition
% -sin(pi*x) at points between the training points.
xTest = [-0.9 -0.5 -0.1 0.1 0.5 0.9];
tTest = zeros(size(xTest));
XTest = dlarray(xTest,"CB");
TTest = dlarray(tTest,"CB");
UPred = model(parameters,XTest,TTest);
fprintf("     x   predicted   -sin(pi*x)\n");
fprintf("%6.2f   %9.4f   %10.4f\n",[xTest; extractdata(UPred); -sin(pi*xTest)]);

%% Model Loss Function
% The loss is the mean squared residual of Burgers' equation at the
% collocation points plus the mean squared error on the initial and
% boundary conditions. The second derivative of u with respect to x needs
% the first derivatives to be traced, hence EnableHigherDerivatives.
function [loss,gradients] = modelLoss(parameters,X,T,X0,T0,U0)

% Make predictions with the initial conditions.
U = model(parameters,X,T);

% Calculate derivatives with respect to X and T.
gradientsU = dlgradient(sum(U,"all"),{X,T},EnableHigherDerivatives=true);
Ux = gradientsU{1};
Ut = gradientsU{2};

% Calculate second-order derivatives with respect to X.
Uxx = dlgradient(sum(Ux,"all"),X,EnableHigherDerivatives=true);

% Calculate the residual of the equation and its loss.
f = Ut + U.*Ux - (0.01./pi).*Uxx;
zeroTarget = zeros(size(f),"like",f);
lossF = mse(f,zeroTarget);

% Calculate the loss on the initial and boundary conditions.
U0Pred = model(parameters,X0,T0);
lossU = mse(U0Pred,U0);

% Combine the losses.
loss = lossF + lossU;

% Calculate the gradients with respect to the learnable parameters.
gradients = dlgradient(loss,parameters);

end

%% Model Function
% A fully connected network: fullyconnect operations with tanh between
% them. The inputs x and t are stacked as the two channels.
function U = model(parameters,X,T)

XT = [X;T];
numLayers = numel(fieldnames(parameters));

% First fully connect operation.
weights = parameters.fc1.Weights;
bias = parameters.fc1.Bias;
U = fullyconnect(XT,weights,bias);

% tanh and fully connect operations for the remaining layers.
for i = 2:numLayers
    name = "fc" + i;

    U = tanh(U);

    weights = parameters.(name).Weights;
    bias = parameters.(name).Bias;
    U = fullyconnect(U,weights,bias);
end

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
