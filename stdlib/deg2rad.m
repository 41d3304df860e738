function angleInRadians = deg2rad(angleInDegrees)
%DEG2RAD Convert angles from degrees to radians.
%   R = DEG2RAD(D) converts every element of D from degrees to radians,
%   R = (pi/180)*D, keeping its size and class.  D must be single or
%   double.
%
%   Example:
%      deg2rad([0 90 180])   % is [0 pi/2 pi]
%
%   See also RAD2DEG.

if ~isfloat(angleInDegrees)
    error('MATLAB:deg2rad:nonFloatInput', 'Input must be single or double.');
end
angleInRadians = (pi/180) * angleInDegrees;
end
