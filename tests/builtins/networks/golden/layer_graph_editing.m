% layerGraph plot reference page: a layer graph from a layer array whose last layer is a
% two-input addition; the skip connection from 'relu_1' goes to the second input of
% 'add'.  Then a layer is replaced and one removed, as the editing functions document.
layers = [
    imageInputLayer([32 32 3],'Name','input')
    convolution2dLayer(3,16,'Padding','same','Name','conv_1')
    batchNormalizationLayer('Name','BN_1')
    reluLayer('Name','relu_1')

    convolution2dLayer(3,16,'Padding','same','Stride',2,'Name','conv_2')
    batchNormalizationLayer('Name','BN_2')
    reluLayer('Name','relu_2')
    additionLayer(2,'Name','add')];

lgraph = layerGraph(layers);
lgraph = connectLayers(lgraph,'relu_1','add/in2')
lgraph.Connections
lgraph = replaceLayer(lgraph,'relu_2',leakyReluLayer(0.2,'Name','leaky'));
lgraph.Layers
