%% Solve the heat equation with a physics-informed dlnetwork
% A physics-informed neural network (PINN) is trained so that its output
% u(x,t) satisfies the heat equation
%
%     du/dt = (1/pi^2)*d2u/dx2,   x in [0,1], t in [0,1],
%
% with the initial condition u(x,0) = sin(pi*x) and the boundary conditions
% u(0,t) = u(1,t) = 0, whose exact solution is u = sin(pi*x)*exp(-t). The
% network is a dlnetwork built from layers; the collocation points are fed
% in mini-batches by an arrayDatastore and a minibatchqueue; the loss needs
% the second derivative of the network output with respect to its input,
% taken with dlgradient and EnableHigherDerivatives; a trainingProgressMonitor
% records the loss. The sizes are kept small so that the example runs in a
% few seconds.

rng(0)

%% Generate Training Data
% Points on the two boundaries, where u = 0.
numBoundaryConditionPoints = [10 10];

x0BC1 = zeros(1,numBoundaryConditionPoints(1));
x0BC2 = ones(1,numBoundaryConditionPoints(2));

t0BC1 = linspace(0,1,numBoundaryConditionPoints(1));
t0BC2 = linspace(0,1,numBoundaryConditionPoints(2));

u0BC1 = zeros(1,numBoundaryConditionPoints(1));
u0BC2 = zeros(1,numBoundaryConditionPoints(2));

% Points at t = 0, where u = sin(pi*x).
numInitialConditionPoints = 21;

x0IC = linspace(0,1,numInitialConditionPoints);
t0IC = zeros(1,numInitialConditionPoints);
u0IC = sin(pi*x0IC);

% Group the initial and boundary conditions together.
X0 = [x0IC x0BC1 x0BC2];
T0 = [t0IC t0BC1 t0BC2];
U0 = [u0IC u0BC1 u0BC2];

% Collocation points in the interior of the domain, where the network must
% satisfy the equation: one row per point, the columns x and t.
numInternalCollocationPoints = 256;
points = rand(numInternalCollocationPoints,2);

%% Create Datastore and Mini-Batch Queue
% The datastore iterates over the rows of the points. The mini-batch
% queue stacks the rows of a mini-batch as the columns of a dlarray with
% format "CB" (the "BC" of MiniBatchFormat describes the read data, one
% observation per row). The outputs are cast to double so that the printed
% results do not depend on rounding differences between machines.
miniBatchSize = 64;

ds = arrayDatastore(points);
mbq = minibatchqueue(ds, ...
    MiniBatchSize=miniBatchSize, ...
    MiniBatchFormat="BC", ...
    OutputCast="double");

%% Define Neural Network Architecture
% A multilayer perceptron with two inputs (x and t), three hidden layers of
% 16 neurons with tanh activations and one output u. The fully connected
% layers are initialized with the Glorot initializer (their default); the
% learnable parameters are converted to double precision with dlupdate.
numLayers = 4;
numNeurons = 16;

layers = featureInputLayer(2);
for i = 1:numLayers-1
    layers = [
        layers
        fullyConnectedLayer(numNeurons)
        tanhLayer];
end
layers = [
    layers
    fullyConnectedLayer(1)];

net = dlnetwork(layers);
net = dlupdate(@double,net);

disp(net.Learnables)

%% Specify Training Options
numEpochs = 60;
initialLearnRate = 0.01;
decayRate = 0.005;

%% Train Neural Network
% The initial and boundary conditions are the same for every mini-batch.
X0 = dlarray(X0,"CB");
T0 = dlarray(T0,"CB");
U0 = dlarray(U0,"CB");

% Accelerate the loss function: later calls with inputs of the same sizes
% and types can reuse the recorded trace.
accfun = dlaccelerate(@modelLoss);

% Clear any previously cached traces of the accelerated function.
clearCache(accfun)

% Initialize the moving averages of the Adam solver.
averageGrad = [];
averageSqGrad = [];

numIterationsPerEpoch = ceil(numInternalCollocationPoints/miniBatchSize);
numIterations = numEpochs*numIterationsPerEpoch;

% Monitor the training progress: the loss against the iteration number.
monitor = trainingProgressMonitor( ...
    Metrics="Loss", ...
    Info=["Epoch" "LearnRate"], ...
    XLabel="Iteration");

epoch = 0;
iteration = 0;

while epoch < numEpochs && ~monitor.Stop
    epoch = epoch + 1;

    % Shuffle the data.
    shuffle(mbq);

    while hasdata(mbq) && ~monitor.Stop
        iteration = iteration + 1;

        % Read a mini-batch of collocation points: x in the first row and
        % t in the second.
        XT = next(mbq);
        X = XT(1,:);
        T = XT(2,:);

        % Evaluate the loss and the gradients using dlfeval and the
        % accelerated modelLoss function.
        [loss,gradients] = dlfeval(accfun,net,X,T,X0,T0,U0);

        % Update the learning rate with a time-based decay schedule.
        learnRate = initialLearnRate / (1 + decayRate*iteration);

        % Update the network parameters using the adamupdate function.
        [net,averageGrad,averageSqGrad] = adamupdate(net,gradients,averageGrad, ...
            averageSqGrad,iteration,learnRate);

        % Record the loss and update the progress.
        recordMetrics(monitor,iteration,Loss=loss);
        updateInfo(monitor,Epoch=epoch + " of " + numEpochs,LearnRate=learnRate);
        monitor.Progress = 100*iteration/numIterations;

        if iteration == 1 || mod(iteration,20) == 0
            fprintf("Iteration %3d, loss = %.5f\n",iteration,extractdata(loss));
        end
    end
end

%% Test Model
% Compare the predictions at t = 0.5 with the exact solution at points
% between the training points.
xTest = [0.1 0.25 0.5 0.75 0.9];
tTest = 0.5*ones(size(xTest));
XTTest = dlarray([xTest; tTest],"CB");
UPred = predict(net,XTTest);
UTest = sin(pi*xTest).*exp(-tTest);
fprintf("     x   predicted      exact\n");
fprintf("%6.2f   %9.4f   %8.4f\n",[xTest; extractdata(UPred); UTest]);
fprintf("Maximum error: %.4f\n",max(abs(extractdata(UPred) - UTest)));

%% Model Loss Function
% The loss is the mean squared residual of the heat equation at the
% collocation points plus the mean squared error on the initial and
% boundary conditions. The second derivative of u with respect to x needs
% the first derivatives to be traced, hence EnableHigherDerivatives.
function [loss,gradients] = modelLoss(net,X,T,X0,T0,U0)

% Make predictions at the collocation points.
XT = cat(1,X,T);
U = forward(net,XT);

% Calculate derivatives with respect to X and T.
gradientsU = dlgradient(sum(U,"all"),{X,T},EnableHigherDerivatives=true);
Ux = gradientsU{1};
Ut = gradientsU{2};

% Calculate second-order derivatives with respect to X.
Uxx = dlgradient(sum(Ux,"all"),X,EnableHigherDerivatives=true);

% Calculate the residual of the equation and its loss.
f = Ut - (1/pi^2).*Uxx;
zeroTarget = zeros(size(f),"like",f);
lossF = l2loss(f,zeroTarget,NormalizationFactor="all-elements");

% Calculate the loss on the initial and boundary conditions.
XT0 = cat(1,X0,T0);
U0Pred = forward(net,XT0);
lossU = l2loss(U0Pred,U0,NormalizationFactor="all-elements");

% Combine the losses.
loss = lossF + lossU;

% Calculate the gradients with respect to the learnable parameters.
gradients = dlgradient(loss,net.Learnables);

end
