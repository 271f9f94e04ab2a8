import { CLIENT_AREA, CLIENT_AREA_TITLE, type ClientArea } from '../../rules/client/index.js';
import { AREAS, type Area } from '../../rules/index.js';

/** An area's name in words: a target's area, or the one area of client rules. */
export function areaTitle(area: Area | ClientArea): string {
  return area === CLIENT_AREA ? CLIENT_AREA_TITLE : AREAS[area];
}
