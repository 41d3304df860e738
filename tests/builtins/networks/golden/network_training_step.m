% The custom training loop the dlnetwork, dlgradient and adamupdate pages describe: the
% gradients of a loss with respect to net.Learnables come back as a table of the same
% layout, and adamupdate returns the updated network and the moment tables.
rng(0)
net = dlnetwork([featureInputLayer(2) fullyConnectedLayer(4) tanhLayer fullyConnectedLayer(1)]);
X = dlarray(rand(2,8,'single'),"CB");
T = dlarray(rand(1,8,'single'),"CB");
[loss,gradients] = dlfeval(@modelLoss,net,X,T);
class(gradients)
gradients.Properties.VariableNames
size(gradients)
[net2,avgG,avgSqG] = adamupdate(net,gradients,[],[],1);
class(net2)
size(avgG)
Y = predict(net2,X);
size(Y)
dims(Y)
[Y,state] = forward(net2,X);
size(state)

function [loss,gradients] = modelLoss(net,X,T)
    Y = forward(net,X);
    loss = mse(Y,T);
    gradients = dlgradient(loss,net.Learnables);
end
