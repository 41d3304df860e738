% the default SGDM options, as MATLAB R2024 prints them (a MATLAB Answers thread shows this output)
options = trainingOptions('sgdm')
