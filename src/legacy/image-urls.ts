/**
 * The image-size convention of the recipe image host: a size variant inserts a transformation
 * segment after `/image/upload/` (`t_recipe-120`, `t_user-48`). api2-notes: [C] that the host
 * accepts such transformations, [I] for the exact rule. Used by the sandbox to build legacy image
 * fields and by the mappings to derive ImageURL120 and the poster avatar from api2's PhotoUrl.
 */

export function sizedImageUrl(url: string, transformation: string): string {
  const marker = '/image/upload/';
  const at = url.indexOf(marker);
  if (at === -1) return url;
  const cut = at + marker.length;
  return `${url.slice(0, cut)}${transformation}/${url.slice(cut)}`;
}

export const imageUrl120 = (url: string): string => sizedImageUrl(url, 't_recipe-120');
export const avatarUrl48 = (url: string): string => sizedImageUrl(url, 't_user-48');
