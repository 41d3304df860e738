%% Complex gradients with dlgradient (dlgradient reference page)
% f(x) = (2+3i)x over the complex plane; the function to differentiate is the
% sum of the real part of f. complexFun and gradFun are local functions at the
% end of this script. Plotting commands draw nothing in mlang.

functionRes = linspace(-2,2,100);
x = functionRes + 1i*functionRes.';
x = dlarray(x);

[y, grad] = dlfeval(@gradFun,x);
y = extractdata(y);

gradientRes = linspace(-2,2,11);
xGrad = gradientRes + 1i*gradientRes.';

[~,gradPlot] = dlfeval(@gradFun,dlarray(xGrad));
gradPlot = extractdata(gradPlot);

imagesc([-2,2],[-2,2],y);
axis xy
colorbar
hold on
quiver(real(xGrad),imag(xGrad),real(gradPlot),imag(gradPlot),"k");
xlabel("Real")
ylabel("Imaginary")
title("Real Value and Gradient","Re$(f(x)) = $ Re$((2+3i)x)$","interpreter","latex")

% The gradient is the same across the whole complex plane.
grad(1,1)

function y = complexFun(x)
    y = (2+3i)*x;
end

function [y,grad] = gradFun(x)
    y = complexFun(x);
    y = real(y);

    grad = dlgradient(sum(y,"all"),x);
end
