%% Assemble a network with a residual connection and train it
% A dlnetwork object is built layer by layer: an empty network, to which
% addLayers adds a chain of layers and connectLayers adds a skip
% connection, so that the output of the first hidden layer is added to the
% output of the second (a residual block). The network then learns a
% function of three variables in a custom training loop with the SGDM
% solver (sgdmupdate), and its predictions are compared with the true
% values.

rng(0)

%% Generate Data
% The target is y = sin(pi*x1).*x2 + 0.5*x3 for points drawn uniformly in
% the cube [-1,1]^3. The observations are the columns of the arrays.
numObservations = 200;
XTrain = 2*rand(3,numObservations) - 1;
TTrain = targetFunction(XTrain);

%% Define Network Architecture
% Create an empty network and add a chain of layers: an input layer for
% three features, a fully connected layer with tanh, a second fully
% connected layer with tanh, an addition layer with two inputs and a fully
% connected output layer. addLayers connects the layers of the chain in
% sequence, so the output of tanh_2 goes to the first input of the
% addition layer (add/in1).
numHiddenUnits = 16;

net = dlnetwork;

layers = [
    featureInputLayer(3,Name="input")
    fullyConnectedLayer(numHiddenUnits,Name="fc_1")
    tanhLayer(Name="tanh_1")
    fullyConnectedLayer(numHiddenUnits,Name="fc_2")
    tanhLayer(Name="tanh_2")
    additionLayer(2,Name="add")
    fullyConnectedLayer(1,Name="fc_out")];

net = addLayers(net,layers);

% The skip connection: the output of tanh_1 goes to the second input of
% the addition layer.
net = connectLayers(net,"tanh_1","add/in2");

net.Connections

% The network was created without input data, so its learnable parameters
% are not yet initialized. Initialize them (the input layer sets the sizes)
% and convert them to double precision so that the printed results do not
% depend on rounding differences between machines.
net = initialize(net);
net = dlupdate(@double,net);

summary(net)

net.Layers

%% Specify Training Options
numIterations = 1000;
learnRate = 0.2;
momentum = 0.9;

%% Train Network
% Train on the whole data set at each iteration. The data are formatted
% dlarray objects with the channel dimension first ("CB").
X = dlarray(XTrain,"CB");
T = dlarray(TTrain,"CB");

% Initialize the velocity of the SGDM solver.
velocity = [];

for iteration = 1:numIterations
    % Evaluate the loss and the gradients using dlfeval and the modelLoss
    % function.
    [loss,gradients] = dlfeval(@modelLoss,net,X,T);

    % Update the network parameters using the sgdmupdate function.
    [net,velocity] = sgdmupdate(net,gradients,velocity,learnRate,momentum);

    if iteration == 1 || mod(iteration,100) == 0
        fprintf("Iteration %4d, loss = %.5f\n",iteration,extractdata(loss));
    end
end

%% Test Network
% Predict the output at new points and compare it with the true values.
XTest = [
    -0.5  0.0  0.5  0.25
     0.8 -0.4  1.0 -0.8
     0.3  0.6 -0.7  0.4];
YTest = predict(net,dlarray(XTest,"CB"));
TTest = targetFunction(XTest);
fprintf("    x1     x2     x3   predicted     true\n");
fprintf("%6.2f %6.2f %6.2f   %9.4f  %7.4f\n",[XTest; extractdata(YTest); TTest]);

% The output of the residual block, taken with the Outputs option of
% predict, has one row per hidden unit.
Z = predict(net,dlarray(XTest,"CB"),Outputs="add");
size(Z)

%% Model Loss Function
% The loss is the half mean squared error between the network output and
% the targets; the gradients are taken with respect to the learnable
% parameters of the network (a table like net.Learnables).
function [loss,gradients] = modelLoss(net,X,T)

Y = forward(net,X);
loss = mse(Y,T);
gradients = dlgradient(loss,net.Learnables);

end

%% Target Function
function T = targetFunction(X)

T = sin(pi*X(1,:)).*X(2,:) + 0.5*X(3,:);

end
