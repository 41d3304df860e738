% An LSTM layer as a MATLAB Answers thread about learnable properties quotes it
% (lstmLayer(100,'Name','lstm1')): every group, with the state parameters last.
layer = lstmLayer(100,'Name','lstm1')
