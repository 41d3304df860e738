function H = hilb(n, classname)
%HILB   Hilbert matrix.
%   H = HILB(N) is the N-by-N matrix with elements H(i,j) = 1/(i+j-1), a
%   classic example of a badly conditioned matrix.
%
%   H = HILB(N, CLASSNAME) returns it as class CLASSNAME, 'double' (the
%   default) or 'single'.
%
%   Example:
%      cond(hilb(4))   % about 1.55e+04
%
%   See also VANDER, MAGIC.

if nargin < 2
    classname = 'double';
end
if (isstring(classname) && ~isscalar(classname)) || ...
        (~strcmp(classname, 'single') && ~strcmp(classname, 'double'))
    error('MATLAB:hilb:notSupportedClass', 'CLASSNAME must be ''double'' or ''single''.');
end
if strcmp(classname, 'single')
    J = 1:single(n);
else
    J = 1:double(n);
end
% row plus column gives every i+j at once
H = 1 ./ (J' + J - 1);
end
